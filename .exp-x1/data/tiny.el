# tiny: the graph every format in data/ holds, without weights (0-based)
2 0
0 1
0	2
1 2
0 1

3 3
2 3
3 4
4 0
