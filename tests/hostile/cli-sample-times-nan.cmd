sample @ --times nan
