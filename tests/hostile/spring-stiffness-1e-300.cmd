sample @ --times 0,1.2e302
