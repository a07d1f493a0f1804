"""Many server processes on one PostgreSQL and one Redis (``JANTAKU_REDIS_URL``).

Each live table is an actor in exactly one process, its owner, which holds the
table's lease in Redis (``lease.py``). A player may connect to any process: a
process that does not own the table relays the socket's commands to the owner
and the owner's frames back over Redis pub/sub (``bus.py``, ``relay.py``). The
node (``node.py``) renews its leases, stops a table whose lease it lost, and
takes over the tables of a process that stopped renewing, rebuilding them from
their records. Without a Redis URL none of this runs: one process, as before.
"""
