"""micrograd -- E. W. Dijkstra"""
