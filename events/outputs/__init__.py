"""What cmdraft writes for people and other tools: the output-file guard, exports, printed sheets."""
