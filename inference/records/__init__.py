"""Inspection records: the SQLite journal, the NG/REVIEW image archive and session exports. Qt-free."""
