"""The browser face: `cmdraft serve`."""
