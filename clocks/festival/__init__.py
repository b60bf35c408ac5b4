"""A festival's screens (issue 15 part 3): one TV showing every live tournament of a room
(the lobby board, from a signed room link), the director's page that builds rotation and
board links, and the director's overview of every live clock, pending floor action and alert
across tournaments."""
