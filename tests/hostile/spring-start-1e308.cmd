sample @ --times 0,1.7e308
