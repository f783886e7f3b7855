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
    # Senlin's rolling update: a batch policy attached, then a new profile; the derived node updates
    # wait on the cluster update, whose data holds the batch plan (one node per batch here).
    batch = {"type": "senlin.policy.batch", "version": "1.0", "properties": {"min_in_service": 2, "max_batch_size": 1, "pause_time": 0}}
    step("batch_policy", lambda: clustering.create_policy(name="sdk-batch", spec=batch).type)
    step("batch_attach", lambda: clustering.attach_policy_to_cluster("sdk-c2", "sdk-batch")["action"] is not None)
    step("new_profile", lambda: clustering.create_profile(name="sdk-prof2", spec=spec).name)

    def roll():
        cluster = clustering.get_cluster("sdk-c2")
        clustering.update_cluster(cluster, profile_id="sdk-prof2")
        update = [a for a in clustering.actions(action="CLUSTER_UPDATE", target=cluster.id)][-1]
        plan = clustering.get("/actions/%s" % update.id).json()["action"]["data"]["update"]["plan"]
        derived = [a for a in clustering.actions(action="NODE_UPDATE") if update.id in (a.depended_by or [])]
        members = clustering.nodes(cluster_id=cluster.id)
        return {
            "batches": [len(b) for b in plan],
            "derived": sorted(a.target_id for a in derived) == sorted(n for b in plan for n in b),
            "profiles": sorted({n.profile_name for n in members}),
            "cluster_profile": clustering.get_cluster("sdk-c2").profile_name,
        }

    step("roll", roll)
    step("batch_detach", lambda: clustering.detach_policy_from_cluster("sdk-c2", "sdk-batch")["action"] is not None)

    def server():
        return next(iter(clustering.nodes(cluster_id=clustering.get_cluster("sdk-c2").id))).physical_id

    # openstacksdk's adopt_node sends no microversion, so real Senlin's 1.7 gate refuses it; the
    # same session's adapter asking for 1.7 adopts.
    step("adopt_unversioned", lambda: clustering.adopt_node(preview=True, identity=server(), type="os.nova.server-1.0"))

    def adopt():
        body = {"identity": server(), "type": "os.nova.server-1.0", "overrides": {"image": "debian-12"}}
        preview = clustering.post("/nodes/adopt-preview", json=body, microversion="1.7").json()
        adopted = clustering.post("/nodes/adopt", json={**body, "name": "sdk-adopted"}, microversion="1.7").json()["node"]
        return {"preview": preview["node_profile"]["node_preview"]["properties"], "adopted": [adopted["name"], adopted["status"]]}

    step("adopt", adopt)
    def version_headers():
        header = "OpenStack-API-Version"
        missing = clustering.get("/clusters/no-such-cluster", microversion="1.10", raise_exc=False)
        return {
            "unversioned": clustering.get("/clusters").headers.get(header),
            "asked": clustering.get("/clusters", microversion="1.10").headers.get(header),
            "error": [missing.status_code, missing.headers.get(header)],
        }

    step("version_headers", version_headers)

    def notify():
        # Neither the SDK nor the CLI has a notify call: the SDK's own adapter posts it.
        made = clustering.create_receiver(name="sdk-msg", type="message")
        hook = clustering.create_receiver(name="sdk-hook", type="webhook", cluster_id=clustering.get_cluster("sdk-c2").id, action="CLUSTER_CHECK")
        message = clustering.post("/receivers/%s/notify" % made.id, raise_exc=False)
        webhook = clustering.post("/receivers/%s/notify" % hook.id, raise_exc=False)
        for receiver in (made, hook):
            clustering.delete_receiver(receiver.id)
        return {"message": message.status_code, "webhook": [webhook.status_code, webhook.json()["error"]["message"]]}

    step("notify", notify)
    step("services", lambda: sorted(x.binary for x in clustering.services()))
    step("delete", lambda: clustering.delete_cluster(clustering.get_cluster("sdk-c2")) is not None)
    step("deleted", lambda: clustering.find_cluster("sdk-c2") is None)
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
