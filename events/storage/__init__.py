"""The event database on disk: the store and its records, atomic files and the lock, saved drafts and their journals, builds, one event in and out."""
