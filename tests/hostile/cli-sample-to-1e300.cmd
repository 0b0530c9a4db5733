sample @ --from 0 --to 1e300
