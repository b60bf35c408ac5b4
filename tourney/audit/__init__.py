"""The audit log: recording (log, the kernel), reading, the undo links, the page."""
