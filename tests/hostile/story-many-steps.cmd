sample @ --times 0,1e5,5e4
