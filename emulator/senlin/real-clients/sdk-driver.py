"""Drives the local Senlin with openstacksdk, unmodified, from the OS_* variables alone.

Prints one JSON object: what discovery found, and per step either its result or the error's HTTP
status and message. The steps run in order; each names what it returns.
"""
import json

import openstack
import requests
from openstack import exceptions


def main():
    conn = openstack.connect()
    clustering = conn.clustering
    out = {}

    def step(name, call):
        try:
            out[name] = {"ok": call()}
        except exceptions.HttpException as error:
            out[name] = {"status": error.status_code, "message": str(error.details or error.message)}
        except Exception as error:  # noqa: BLE001 - reported, so the test names the step that broke
            out[name] = {"error": repr(error)}

    data = clustering.get_endpoint_data()
    out["discovery"] = {
        "url": data.url,
        "min": "%d.%d" % data.min_microversion if data.min_microversion else None,
        "max": "%d.%d" % data.max_microversion if data.max_microversion else None,
    }
    spec = {"type": "os.nova.server", "version": "1.0", "properties": {"flavor": "m1.small", "image": "cirros"}}
    step("profile", lambda: clustering.create_profile(name="sdk-prof", spec=spec).to_dict(computed=False)["name"])
    step("create", lambda: clustering.create_cluster(name="sdk-c", profile_id="sdk-prof", min_size=1, max_size=3, desired_capacity=1).status)
    step("active", lambda: clustering.wait_for_status(clustering.get_cluster("sdk-c"), "ACTIVE", wait=30, interval=0.2).status)
    step("scale_out", lambda: clustering.scale_out_cluster("sdk-c", count=1)["action"] is not None)
    step("size_after_scale_out", lambda: clustering.get_cluster("sdk-c").desired_capacity)
    step("resize_too_big", lambda: clustering.resize_cluster("sdk-c", adjustment_type="EXACT_CAPACITY", number=9, strict=True))
    step("update", lambda: clustering.update_cluster("sdk-c", name="sdk-c2").name)
    step("renamed", lambda: clustering.get_cluster("sdk-c2").name)
    receiver = {}

    def make_receiver():
        cluster = clustering.get_cluster("sdk-c2")
        made = clustering.create_receiver(name="sdk-r", type="webhook", cluster_id=cluster.id, action="CLUSTER_SCALE_OUT", params={"count": 1})
        receiver["id"], receiver["url"] = made.id, made.channel["alarm_url"]
        return {"type": made.type, "action": made.action, "has_url": "/v1/webhooks/" in receiver["url"]}

    step("receiver", make_receiver)
    # The webhook needs no token: the URL is the credential.
    step("trigger", lambda: requests.post(receiver["url"], timeout=30).status_code)
    step("size_after_trigger", lambda: clustering.get_cluster("sdk-c2").desired_capacity)
    step("receiver_delete", lambda: clustering.delete_receiver(receiver["id"]) is None or True)
    step("receivers_left", lambda: [r.name for r in clustering.receivers()])
    step("missing", lambda: clustering.get_cluster("no-such-cluster"))
    step("actions", lambda: sorted({a.action for a in clustering.actions()}))
    step("events", lambda: len(list(clustering.events(cluster_id=clustering.get_cluster("sdk-c2").id))) > 0)
    step("profile_types", lambda: sorted(t.name for t in clustering.profile_types()))
    step("delete", lambda: clustering.delete_cluster(clustering.get_cluster("sdk-c2")) is not None)
    step("deleted", lambda: clustering.find_cluster("sdk-c2") is None)
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
