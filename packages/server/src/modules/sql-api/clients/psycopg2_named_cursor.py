"""Reads a large result through a psycopg2 named (server-side) cursor and prints what it read as JSON.

psycopg2 declares the cursor (DECLARE ... CURSOR WITHOUT HOLD FOR ...) in the transaction it opens,
then FETCHes `itersize` rows at a time. Arguments: host port database user password query.
Used by streaming.test.ts.
"""
import json
import sys

import psycopg2

host, port, database, user, password, query = sys.argv[1:7]
connection = psycopg2.connect(host=host, port=int(port), dbname=database, user=user, password=password, sslmode="disable")
out = {"count": 0, "sum": 0, "first": None, "last": None}
with connection.cursor("big") as cursor:
    cursor.itersize = 5000
    cursor.execute(query)
    for row in cursor:
        value = int(row[0])
        if out["first"] is None:
            out["first"] = value
        out["last"] = value
        out["count"] += 1
        out["sum"] += value
connection.commit()
connection.close()
print(json.dumps(out))
