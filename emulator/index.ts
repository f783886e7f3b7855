/** The Clusterform local control plane: an emulator of the cluster platform APIs for tests. */
export { type Clock, createFakeClock, type FakeClock, systemClock } from "./clock";
export { type LocalControlPlane, type LocalControlPlaneOptions, startLocalControlPlane } from "./server";
