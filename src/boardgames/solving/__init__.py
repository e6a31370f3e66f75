"""Exact solving: a position with the best solver its game has (`position`),
and one solve split over the workers of an executor (`split`)."""
