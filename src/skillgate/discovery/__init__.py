"""Discovery: the skills listings, endpoint documentation and the download bundle."""
