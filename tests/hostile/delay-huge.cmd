sample @ --times 0,1e308
