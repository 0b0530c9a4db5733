sample @ --times 0,1,1e300
