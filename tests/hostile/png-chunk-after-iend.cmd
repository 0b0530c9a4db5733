diff @ REF
