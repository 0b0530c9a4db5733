diff REF @
