"""A tiny external mjai bot for the tests (standard library only): it discards what it
draws and passes on everything else.

    python tsumogiri_mjai.py SEAT [array|lines|hang|garbage|late|die]

``array`` (mjai.app): each line a JSON array of events, one answer per line.
``lines`` (Mortal): one event a line; it answers only after its own draw.
``hang`` reads and never answers; ``garbage`` answers lines that are not actions;
``late`` answers its first request after a pause, the rest at once; ``die`` exits.
"""

import json
import sys
import time


def answer(seat: int, event: dict[str, object]) -> dict[str, object] | None:
    if event.get("type") == "tsumo" and event.get("actor") == seat:
        return {"type": "dahai", "actor": seat, "pai": event["pai"], "tsumogiri": True}
    return None


def main() -> None:
    seat = int(sys.argv[1])
    mode = sys.argv[2] if len(sys.argv) > 2 else "array"
    if mode == "die":
        return
    first = True
    for line in sys.stdin:
        if mode == "hang":
            continue
        if mode == "garbage":
            print("this is not json" if first else json.dumps({"type": "dahai", "pai": "9z"}))
            first = False
            sys.stdout.flush()
            continue
        if mode == "lines":
            reply = answer(seat, json.loads(line))
            if reply is not None:
                print(json.dumps(reply), flush=True)
            continue
        events = json.loads(line)
        if mode == "late" and first:
            time.sleep(float(sys.argv[3]))
        first = False
        reply = answer(seat, events[-1]) if events else None
        print(json.dumps(reply or {"type": "none"}), flush=True)


main()
