"""Connects to the SQL API with psycopg2 (Debian's python3-psycopg2) and prints what it read as JSON.

Arguments: host port database user password. Used by psycopg2.test.ts.
"""
import json
import sys

import psycopg2

host, port, database, user, password = sys.argv[1:6]
connection = psycopg2.connect(host=host, port=int(port), dbname=database, user=user, password=password, sslmode="disable")
out = {}
with connection.cursor() as cursor:
    cursor.execute("SELECT status, MEASURE(count) AS n FROM orders WHERE status = %s GROUP BY 1", ("completed",))
    out["columns"] = [d.name for d in cursor.description]
    out["rows"] = [[str(v) for v in row] for row in cursor.fetchall()]
    cursor.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
    out["tables"] = [row[0] for row in cursor.fetchall()]
    cursor.execute("SELECT id FROM orders ORDER BY id LIMIT 3")
    out["ids"] = [str(row[0]) for row in cursor.fetchall()]
    try:
        cursor.execute("SELECT nope FROM orders")
    except psycopg2.Error as error:
        out["error"] = error.pgcode
connection.rollback()
connection.close()
print(json.dumps(out))
