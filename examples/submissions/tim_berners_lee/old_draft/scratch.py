# draft, ignore
