sample @ --fps 1e308
