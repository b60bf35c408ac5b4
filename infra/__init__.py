"""Infrastructure the features use and which imports none of them."""
