"""Helpers shared by the tests (imported as `support.<module>`)."""
