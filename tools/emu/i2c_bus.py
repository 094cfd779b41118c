"""An I2C bus: the devices on it, and what its traffic costs in time.

Each byte on the wire takes 9 clocks (8 data bits + ACK); a transaction adds about
2 clocks for its START and STOP. That is the whole model -- clock stretching and
the ESP32's inter-byte gaps are left out, so real transfers are a little slower.
"""
import errno


class Bus:
    def __init__(self, board):
        self._board = board
        self.devices = {}
        self.reset()

    def reset(self):
        """Zero the traffic counters."""
        self.transactions = 0
        self.bytes = 0          # address bytes and control bytes included
        self.time_us = 0.0

    def attach(self, address, device):
        self.devices[address] = device

    def detach(self, address):
        self.devices.pop(address, None)

    def scan(self, freq):
        found = sorted(self.devices)
        # A scan probes every address 0x08..0x77 with an empty write.
        for _ in range(0x08, 0x78):
            self._account(1, freq)
        return found

    def write(self, address, data, freq):
        """One write transaction; returns how many data bytes were ACKed."""
        device = self.devices.get(address)
        if device is None:
            self._account(1, freq)       # the address byte, NACKed
            raise OSError(errno.ENODEV, "ENODEV")
        device.i2c_write(bytes(data))
        self._account(1 + len(data), freq)
        return len(data)

    def read(self, address, count, freq):
        device = self.devices.get(address)
        if device is None:
            self._account(1, freq)
            raise OSError(errno.ENODEV, "ENODEV")
        data = device.i2c_read(count)
        self._account(1 + count, freq)
        return data

    def write_then_read(self, address, head, count, freq):
        """A register read: write `head`, repeated START, read `count` bytes."""
        device = self.devices.get(address)
        if device is None:
            self._account(1, freq)
            raise OSError(errno.ENODEV, "ENODEV")
        device.i2c_write(bytes(head))
        data = device.i2c_read(count)
        # Two address bytes; the repeated START costs about one extra clock.
        self._account(2 + len(head) + count, freq, extra_clocks=1)
        return data

    def _account(self, nbytes, freq, extra_clocks=0):
        us = (nbytes * 9 + 2 + extra_clocks) * 1e6 / freq
        self.transactions += 1
        self.bytes += nbytes
        self.time_us += us
        # The CPU waits for the transfer (the ESP32 driver blocks), so time passes.
        self._board.advance_ns(int(round(us * 1000)))
