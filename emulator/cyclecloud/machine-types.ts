/** The hardware of one Azure VM size, as the `virtualMachine` object of a status bucket reports it. */
export interface MachineType {
  /** Azure quota family, e.g. `standardFSv2Family`: consumed cores are counted per family. */
  family: string;
  vcpuCount: number;
  pcpuCount: number;
  gpuCount: number;
  /** RAM in GB. */
  memoryGb: number;
  infiniband: boolean;
}

/** Azure VM sizes the emulator knows, with their published hardware. */
export const MACHINE_TYPES: Readonly<Record<string, MachineType>> = {
  Standard_F2s_v2: { family: "standardFSv2Family", vcpuCount: 2, pcpuCount: 1, gpuCount: 0, memoryGb: 4, infiniband: false },
  Standard_F4s_v2: { family: "standardFSv2Family", vcpuCount: 4, pcpuCount: 2, gpuCount: 0, memoryGb: 8, infiniband: false },
  Standard_F8s_v2: { family: "standardFSv2Family", vcpuCount: 8, pcpuCount: 4, gpuCount: 0, memoryGb: 16, infiniband: false },
  Standard_D2s_v3: { family: "standardDSv3Family", vcpuCount: 2, pcpuCount: 1, gpuCount: 0, memoryGb: 8, infiniband: false },
  Standard_D4s_v3: { family: "standardDSv3Family", vcpuCount: 4, pcpuCount: 2, gpuCount: 0, memoryGb: 16, infiniband: false },
  Standard_D8s_v3: { family: "standardDSv3Family", vcpuCount: 8, pcpuCount: 4, gpuCount: 0, memoryGb: 32, infiniband: false },
  Standard_E4s_v3: { family: "standardESv3Family", vcpuCount: 4, pcpuCount: 2, gpuCount: 0, memoryGb: 32, infiniband: false },
  Standard_NC6: { family: "standardNCFamily", vcpuCount: 6, pcpuCount: 6, gpuCount: 1, memoryGb: 56, infiniband: false },
  Standard_NC12: { family: "standardNCFamily", vcpuCount: 12, pcpuCount: 12, gpuCount: 2, memoryGb: 112, infiniband: false },
  Standard_NC24: { family: "standardNCFamily", vcpuCount: 24, pcpuCount: 24, gpuCount: 4, memoryGb: 224, infiniband: false },
  Standard_HC44rs: { family: "standardHCSFamily", vcpuCount: 44, pcpuCount: 44, gpuCount: 0, memoryGb: 352, infiniband: true },
  Standard_HB120rs_v3: {
    family: "standardHBrsv3Family",
    vcpuCount: 120,
    pcpuCount: 120,
    gpuCount: 0,
    memoryGb: 448,
    infiniband: true,
  },
};

/** The known VM size names, for error messages. */
export const MACHINE_TYPE_NAMES: readonly string[] = Object.keys(MACHINE_TYPES);

/** The hardware of a known VM size; definitions are validated, so a miss is a bug. */
export function machineTypeOf(name: string): MachineType {
  const type = MACHINE_TYPES[name];
  if (!type) throw new Error(`unknown machine type "${name}"`);
  return type;
}
