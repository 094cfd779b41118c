"""Run a simulated board on a pseudo-terminal until Ctrl-C: python -m tools.boardsim"""
import argparse
import signal

from tools.boardsim import BoardSim


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--heap", type=int, default=131072, help="MicroPython heap in bytes")
    parser.add_argument("--quota", type=int, default=None, help="flash size in bytes")
    args = parser.parse_args()
    with BoardSim(heap=args.heap) as sim:
        if args.quota is not None:
            sim.quota(args.quota)
        print(f"simulated board on {sim.port}  (try: make deploy PORT={sim.port}); Ctrl-C stops it",
              flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
