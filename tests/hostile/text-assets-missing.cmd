validate @ --assets /nonexistent-runeframe
