#!/usr/bin/env python3
"""Uploads FILE to a voxl server the way the page does: POST /files/upload
with its name and size, then PUTs of CHUNK bytes in order on one kept-alive
connection, each at the offset the server confirmed. Prints the seconds it
took. Used by bench/files/throughput.sh (curl spends several milliseconds of
its own on each PUT, more than voxl does).

  upload.py HOST:PORT NAME FILE [CHUNK]"""
import http.client
import json
import os
import sys
import time


def main():
    host, name, path = sys.argv[1], sys.argv[2], sys.argv[3]
    chunk = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 20
    size = os.path.getsize(path)
    start = time.perf_counter()
    conn = http.client.HTTPConnection(host)
    conn.request("POST", "/files/upload", body=json.dumps({"path": name, "size": size}),
                 headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    answer = json.loads(r.read())
    if r.status != 201:
        sys.exit(f"upload.py: announcing the upload: {r.status} {answer}")
    offset = 0
    with open(path, "rb") as f:
        while offset < size:
            data = f.read(chunk)
            conn.request("PUT", f"/files/upload?id={answer['id']}&offset={offset}", body=data,
                         headers={"Content-Type": "application/octet-stream"})
            r = conn.getresponse()
            reply = json.loads(r.read())
            if r.status != 200:
                sys.exit(f"upload.py: the chunk at {offset}: {r.status} {reply}")
            offset = reply["offset"]
    print(f"{time.perf_counter() - start:.6f}")


if __name__ == "__main__":
    main()
