sample @ --times 5e-291
