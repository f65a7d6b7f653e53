"""One module per paper experiment. Each returns records (pandas DataFrames,
one row per fit) and turns records into the cells of the paper's tables; file
I/O is left to the workflow scripts."""
