"""The tournament event log: appended in the writer's transaction, published after commit."""
