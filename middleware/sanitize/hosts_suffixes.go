package sanitize

// builtinSuffixes are the DNS suffixes, without their leading dot, whose
// names only resolve inside a private network: a host under one of them
// names a piece of an upstream's infrastructure, never a public service.
// Each entry says why it is private.
//
// Covered without an entry of their own: AWS's ip-10-0-0-5.ec2.internal
// and ip-10-0-0-5.eu-west-1.compute.internal, GCP's
// vm-1.us-central1-a.c.my-project.internal and Docker's
// host.docker.internal end in .internal; Kubernetes', Istio's and
// Linkerd's service names (api.default.svc.cluster.local) end in
// .cluster.local, or in .svc when written short.
//
// Left out on purpose: public zones where clouds also put private
// addresses (*.rds.amazonaws.com, *.vpce.amazonaws.com, *.privatelink.*,
// Tailscale's *.ts.net, whose Funnel names are public), because the same
// zones hold names an agent may need; Istio's old ".global", a public TLD;
// ".home", which would take Java's "user.home" property for a host.
var builtinSuffixes = []string{
	"internal",                  // ICANN reserved .internal for private use (2024); AWS, GCP and Docker names end in it
	"local",                     // mDNS (RFC 6762): link-local names, never delegated in DNS
	"svc",                       // Kubernetes service names written short: <service>.<namespace>.svc
	"cluster.local",             // Kubernetes' default cluster domain, for services and pods alike
	"localhost",                 // RFC 6761: always the loopback host
	"localdomain",               // the default domain of Linux hosts: localhost.localdomain, db.localdomain
	"lan",                       // the default domain of home and office routers (OpenWrt, dnsmasq); not a TLD
	"home.arpa",                 // RFC 8375: the special-use domain for home networks
	"corp",                      // ICANN name-collision list, never to be delegated; the commonest Active Directory domain
	"intranet",                  // not a TLD; the usual name of an office network's zone
	"private",                   // not a TLD; the usual name of a split-horizon private zone
	"consul",                    // HashiCorp Consul's DNS domain: web.service.consul, node-1.node.dc1.consul
	"mesh",                      // Kuma and Kong Mesh service names: backend.mesh; not a TLD
	"internal.cloudapp.net",     // Azure's VNet DNS: vm-1.<id>.internal.cloudapp.net resolves only inside the VNet
	"internal.chinacloudapp.cn", // the same for Azure operated in China
	"oraclevcn.com",             // Oracle Cloud VCN DNS: vm-1.subnet.vcn.oraclevcn.com resolves only inside the VCN
}
