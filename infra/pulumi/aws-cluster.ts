// The Pulumi program of an ephemeral TiDB cluster on AWS (an inline program of the Automation
// API; tiperf's aws cloud drives it through infra/index.ts, and gives it the machines to create). It creates exactly what `resourcesOf` lists for the profile:
// a VPC with one public subnet, a security group that admits SSH only from the runner and cluster
// traffic only from its own members, the run's key pair, and one machine per TiDB instance plus a
// load host, every resource tagged with the run (the provider's default tags, and volume tags).
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";

/** One machine to create: a TiDB instance or the load host. */
export interface AwsMachine {
  name: string;
  /** pd, tikv, tidb, tiflash or load. */
  role: string;
  instanceType: string;
  /** A data volume (gp3) beside the root volume, GB. */
  dataVolumeGb?: number;
  /** What it runs at first boot (cloud-init user data). */
  userData: string;
}

/** The profile's aws section, as far as the program needs it. */
export interface AwsClusterSettings {
  region: string;
  zone?: string;
  ami: { owner: string; name: string };
  spot: boolean;
  root_volume_gb: number;
}

export interface AwsClusterArgs {
  settings: AwsClusterSettings;
  machines: AwsMachine[];
  /** tiperf:run-id, tiperf:expires-at, tiperf:repository, tiperf:pr. */
  tags: Record<string, string>;
  /** Who may SSH in: the runner's address, /32. */
  sshCidr: string;
  /** The run's public key (OpenSSH format). */
  publicKey: string;
  /** An EC2 API other than AWS's own (tests; a local EC2 API). */
  endpoint?: string;
}

/** What `up` returns: each machine's role and addresses (the tidb-cluster target's hosts). */
export interface ClusterOutputs {
  machines: { name: string; role: AwsMachine["role"]; privateIp: string; publicIp: string; id: string }[];
}

export function awsClusterProgram(args: AwsClusterArgs): () => Promise<Record<string, unknown>> {
  return async () => {
    const { settings, tags } = args;
    const zone = settings.zone ?? `${settings.region}a`;
    const provider = new aws.Provider("aws", {
      region: settings.region as aws.Region,
      defaultTags: { tags },
      ...(args.endpoint
        ? {
            endpoints: [{ ec2: args.endpoint, sts: args.endpoint }],
            skipCredentialsValidation: true,
            skipRequestingAccountId: true,
            skipMetadataApiCheck: true,
          }
        : {}),
    });
    const opts = { provider };
    const vpc = new aws.ec2.Vpc(
      "vpc",
      { cidrBlock: "10.42.0.0/16", enableDnsHostnames: true, enableDnsSupport: true },
      opts,
    );
    const igw = new aws.ec2.InternetGateway("igw", { vpcId: vpc.id }, opts);
    const subnet = new aws.ec2.Subnet(
      "subnet",
      { vpcId: vpc.id, cidrBlock: "10.42.1.0/24", availabilityZone: zone, mapPublicIpOnLaunch: true },
      opts,
    );
    const routes = new aws.ec2.RouteTable(
      "routes",
      { vpcId: vpc.id, routes: [{ cidrBlock: "0.0.0.0/0", gatewayId: igw.id }] },
      opts,
    );
    new aws.ec2.RouteTableAssociation(
      "routes-subnet",
      { subnetId: subnet.id, routeTableId: routes.id },
      opts,
    );
    const group = new aws.ec2.SecurityGroup(
      "cluster",
      {
        vpcId: vpc.id,
        description: "tiperf: SSH from the runner, cluster traffic inside the group",
        ingress: [
          {
            description: "SSH from the runner",
            protocol: "tcp",
            fromPort: 22,
            toPort: 22,
            cidrBlocks: [args.sshCidr],
          },
          { description: "the cluster's own traffic", protocol: "-1", fromPort: 0, toPort: 0, self: true },
        ],
        egress: [{ protocol: "-1", fromPort: 0, toPort: 0, cidrBlocks: ["0.0.0.0/0"] }],
      },
      opts,
    );
    const key = new aws.ec2.KeyPair("key", { publicKey: args.publicKey }, opts);
    const ami = aws.ec2.getAmiOutput(
      {
        owners: [settings.ami.owner],
        mostRecent: true,
        filters: [
          { name: "name", values: [settings.ami.name] },
          { name: "virtualization-type", values: ["hvm"] },
        ],
      },
      { provider },
    );
    const machines = args.machines.map((m) => {
      const instance = new aws.ec2.Instance(
        m.name,
        {
          ami: ami.id,
          instanceType: m.instanceType,
          subnetId: subnet.id,
          vpcSecurityGroupIds: [group.id],
          keyName: key.keyName,
          userData: m.userData,
          rootBlockDevice: {
            volumeSize: settings.root_volume_gb,
            volumeType: "gp3",
            deleteOnTermination: true,
          },
          ...(m.dataVolumeGb
            ? {
                ebsBlockDevices: [
                  {
                    deviceName: "/dev/sdf",
                    volumeSize: m.dataVolumeGb,
                    volumeType: "gp3",
                    deleteOnTermination: true,
                  },
                ],
              }
            : {}),
          // default tags do not reach the volumes an instance creates: tag them here
          volumeTags: { ...tags, Name: `tiperf-${m.name}` },
          tags: { Name: `tiperf-${m.name}`, "tiperf:role": m.role },
          ...(settings.spot
            ? {
                instanceMarketOptions: {
                  marketType: "spot",
                  spotOptions: { spotInstanceType: "one-time", instanceInterruptionBehavior: "terminate" },
                },
              }
            : {}),
        },
        { provider, dependsOn: [igw] },
      );
      return pulumi
        .all([instance.id, instance.privateIp, instance.publicIp])
        .apply(([id, privateIp, publicIp]) => ({ name: m.name, role: m.role, id, privateIp, publicIp }));
    });
    return { machines: pulumi.all(machines) };
  };
}
