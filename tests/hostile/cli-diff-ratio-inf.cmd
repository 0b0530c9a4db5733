diff REF REF --max-diff-ratio inf
