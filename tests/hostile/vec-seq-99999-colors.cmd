sample @ --times 0,50000.5,1e9
