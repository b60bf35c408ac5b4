"""Text as the venue reads it: collation, money, QR codes."""
