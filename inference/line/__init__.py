"""Line integration: the PLC trigger/result handshake (one pure state machine) and its transports.

    events.py     the vocabulary: states, codes, verdicts, events, actions
    handshake.py  the state machine: transitions and signals (pure, no I/O)
    station.py    LineStation: runs inspections off the transports' threads, tells each transport of changes
    breaker.py    circuit breaker and outbox: a dead peer never blocks a thread
    loop_thread.py  an asyncio server's lifecycle on its own thread and loop (Modbus and OPC UA servers)
    modbus.py     the station as a Modbus TCP server (pymodbus), register map in README.md
    modbus_client.py  the station as a Modbus client writing into the PLC's own registers
    plc.py        a PLC played in software for each transport (plc-sim, benchmarks)
    opcua.py      the station as an OPC UA server (asyncua): StartSingleJob, SelectRecipe, ResultReady
    mqtt.py       results and status over MQTT (paho-mqtt), commands on a command topic
    jobs.py       job index -> recipe file in a recipe folder

Qt-free, like all of inference/. The transports import their library when opened, so importing this
package needs none of them.
"""
