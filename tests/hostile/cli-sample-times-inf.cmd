sample @ --times 0,inf
