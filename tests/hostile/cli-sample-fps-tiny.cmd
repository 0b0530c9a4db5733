sample @ --fps 1e-300 --to 1e300
