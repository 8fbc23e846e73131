"""Which transports a station opens, from settings or the command line: one description, one way to open them,
shared by `hangtag-inspect line`, the window and `hangtag-station --headless`."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from inference.line.station import LineError, LineStation

PASSWORD_ENV = "HANGTAG_OPCUA_PASSWORD"


@dataclass(frozen=True)
class LineOptions:
    modbus: str = ""            # HOST:PORT to serve the Modbus map on
    opcua: str = ""             # opc.tcp:// URL to serve OPC UA at
    opcua_user: str = ""        # its password comes from HANGTAG_OPCUA_PASSWORD, never from a file or argument
    opcua_anonymous: bool = False
    mqtt: str = ""              # mqtt://HOST:PORT/TOPIC/BASE
    recipe_dir: str = ""        # NN_name.toml recipes: NN is the job index a PLC selects
    ack_timeout_s: float = 2.0
    queue_depth: int = 4
    inspect_budget_s: float = 10.0  # a trigger not answered by then gets verdict ERROR

    @property
    def enabled(self) -> bool:
        return bool(self.modbus or self.opcua or self.mqtt)

    def merged(self, overrides: dict[str, Any]) -> LineOptions:
        """These options with every override that is set (not None, not empty) taking precedence."""
        known = {f.name for f in fields(self)}
        given = {k: v for k, v in overrides.items() if k in known and v not in (None, "")}
        return LineOptions(**{**{f.name: getattr(self, f.name) for f in fields(self)}, **given})


def open_transports(station: LineStation, options: LineOptions, *, cert_dir: Path | None = None,
                    on_error=None) -> list:
    """Start each enabled transport. With `on_error`, a transport that cannot start is reported there and the
    others still start (the window); without, the first failure is raised (the command line)."""
    opened = []
    for name, opener in (("modbus", _modbus), ("opcua", _opcua), ("mqtt", _mqtt)):
        if not getattr(options, name):
            continue
        try:
            opened.append(opener(station, options, cert_dir))
        except LineError as exc:
            if on_error is None:
                for transport in reversed(opened):
                    transport.close()
                raise
            on_error(name, exc)
    return opened


def _modbus(station: LineStation, options: LineOptions, cert_dir: Path | None):
    from inference.line.modbus import ModbusServer, parse_host_port

    return ModbusServer(station, *parse_host_port(options.modbus)).start()


def _opcua(station: LineStation, options: LineOptions, cert_dir: Path | None):
    from inference.line.opcua import OpcUaServer

    users = None
    if options.opcua_user:
        password = os.environ.get(PASSWORD_ENV, "")
        if not password:
            raise LineError("OPC UA user has no password", expected=f"{PASSWORD_ENV} set",
                            found="it is empty or unset", hint=f"export {PASSWORD_ENV}=... before starting")
        users = {options.opcua_user: password}
    return OpcUaServer(station, options.opcua, users=users, anonymous=options.opcua_anonymous,
                       cert_dir=cert_dir).start()


def _mqtt(station: LineStation, options: LineOptions, cert_dir: Path | None):
    from inference.line.mqtt import MqttLink

    return MqttLink(station, options.mqtt).start()
