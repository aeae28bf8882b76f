"""Broadcast: every board publishes its game to an MQTT broker; the club
dashboard shows every table live."""
