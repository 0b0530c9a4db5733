sample @ --times 0,10
