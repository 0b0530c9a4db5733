diff REF REF --threshold nan
