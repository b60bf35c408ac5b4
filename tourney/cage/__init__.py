"""The cage: refunds and their undo, a prize payment's undo, receipts."""
