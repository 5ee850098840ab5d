"""A single-node Slurm for a test that is not pytest (the window's sweep
panel test): `python3 local_cluster.py FOLDER` starts the tests' cluster
(services.Cluster) in FOLDER, prints `SLURM_CONF=PATH` and `PARTITION=NAME`
once it is up, and stops it when its standard input closes."""

import pathlib
import sys

import services

cluster = services.Cluster(pathlib.Path(sys.argv[1]))
try:
    print("SLURM_CONF=%s" % cluster.conf, flush=True)
    print("PARTITION=%s" % cluster.PARTITION, flush=True)
    sys.stdin.read()
finally:
    cluster.stop()
