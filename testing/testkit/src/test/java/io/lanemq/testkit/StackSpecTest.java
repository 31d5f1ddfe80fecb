package io.lanemq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.testkit.tls.SelfSignedCertificate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StackSpecTest {

    @Test
    void dualIdcHasTwoClustersWithOneBrokerEach() {
        StackSpec spec = StackSpec.dualIdc();

        assertThat(spec.idcs()).containsExactly(IdcSpec.of("idc-a", "cluster-a"), IdcSpec.of("idc-b", "cluster-b"));
        assertThat(spec.idcs()).allMatch(idc -> idc.brokers() == 1);
        assertThat(spec.brokerHeapMb()).isEqualTo(384);
        assertThat(spec.jvmOptions()).isEqualTo(StackSpec.DEFAULT_JVM_OPTIONS);
    }

    @Test
    void toBuilderKeepsEverySetting() {
        StackSpec spec = StackSpec.builder().idc(IdcSpec.builder("idc-a").clusterName("c-a").brokers(2).build())
            .brokerHeapMb(512).nameServerHeapMb(96).startTimeout(Duration.ofSeconds(30))
            .brokerProperty("flushDiskType", "SYNC_FLUSH").build();

        StackSpec copy = spec.toBuilder().build();

        assertThat(copy.toString()).isEqualTo(spec.toString());
    }

    @Test
    void latencyProxyIsOffByDefaultAndPartOfTheIdcsIdentity() {
        IdcSpec plain = IdcSpec.of("idc-b", "cluster-b");
        IdcSpec proxied = IdcSpec.builder("idc-b").clusterName("cluster-b").latencyProxy(true).build();

        assertThat(plain.latencyProxy()).isFalse();
        assertThat(proxied.latencyProxy()).isTrue();
        assertThat(proxied).isNotEqualTo(plain);
        assertThat(proxied.toString()).contains("latencyProxy");
    }

    @Test
    void slavesAreOffByDefaultAndPartOfTheIdcsIdentity() {
        IdcSpec plain = IdcSpec.of("idc-a", "cluster-a");
        IdcSpec paired = IdcSpec.builder("idc-a").clusterName("cluster-a").slaves(true).build();

        assertThat(plain.slaves()).isFalse();
        assertThat(paired.slaves()).isTrue();
        assertThat(paired.brokers()).as("masters, slaves not counted").isEqualTo(1);
        assertThat(paired).isNotEqualTo(plain);
        assertThat(paired.toString()).contains("slaves");
    }

    @Test
    void rejectsAStackWithoutIdcs() {
        assertThatThrownBy(() -> StackSpec.builder().build()).hasMessageContaining("at least one IDC");
    }

    @Test
    void rejectsDuplicateIdcAndClusterNames() {
        StackSpec.Builder builder = StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a"));

        assertThatThrownBy(() -> builder.idc(IdcSpec.of("idc-a", "cluster-z"))).hasMessageContaining("idc-a");
        assertThatThrownBy(() -> builder.idc(IdcSpec.of("idc-z", "cluster-a"))).hasMessageContaining("cluster-a");
    }

    @Test
    void rejectsBadIdcSettings() {
        assertThatThrownBy(() -> IdcSpec.builder("IDC A")).hasMessageContaining("IDC name");
        assertThatThrownBy(() -> IdcSpec.builder("idc-a").brokers(0)).hasMessageContaining("brokers of IDC idc-a");
        assertThatThrownBy(() -> IdcSpec.builder("idc-a").build()).hasMessageContaining("clusterName");
        assertThatThrownBy(() -> IdcSpec.of("idc-a", "cluster a")).hasMessageContaining("clusterName");
    }

    @Test
    void rejectsHeapAndTimeoutsOutOfRange() {
        assertThatThrownBy(() -> StackSpec.builder().brokerHeapMb(16)).hasMessageContaining("brokerHeapMb");
        assertThatThrownBy(() -> StackSpec.builder().jvmOptions(List.of("-Xmx1g"))).hasMessageContaining("heap");
        assertThatThrownBy(() -> StackSpec.builder().jvmOptions(List.of("UseSerialGC")))
            .hasMessageContaining("must start with '-'");
        assertThatThrownBy(() -> StackSpec.builder().startTimeout(Duration.ZERO)).hasMessageContaining("startTimeout");
    }

    @Test
    void acceptsKnownBrokerPropertiesWithParsableValues() {
        StackSpec spec = StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a"))
            .brokerProperty("flushDiskType", "SYNC_FLUSH")
            .brokerProperty("sendMessageThreadPoolNums", "4")
            .brokerProperty("transactionCheckInterval", "2000")
            .brokerProperty("serverWorkerThreads", "4")
            .build();

        assertThat(spec.brokerProperties()).containsEntry("sendMessageThreadPoolNums", "4");
    }

    @Test
    void rejectsBrokerPropertiesRocketMqWouldIgnore() {
        StackSpec.Builder builder = StackSpec.builder();

        assertThatThrownBy(() -> builder.brokerProperty("noSuchSetting", "1"))
            .hasMessageContaining("unknown broker property noSuchSetting");
        assertThatThrownBy(() -> builder.brokerProperty("transactionCheckInterval", "soon"))
            .hasMessageContaining("cannot take the value 'soon'");
        assertThatThrownBy(() -> builder.brokerProperty("autoCreateTopicEnable", "yes"))
            .hasMessageContaining("cannot take the value");
        assertThatThrownBy(() -> builder.brokerProperty("listenPort", "10911"))
            .hasMessageContaining("set by the testkit");
    }

    @Test
    void aclIsOffUntilAnAccountIsGivenAndThenHasAnAdminOfItsOwnThatACopyKeeps() {
        StackSpec open = StackSpec.dualIdc();
        assertThat(open.aclEnabled()).isFalse();
        assertThat(open.tls()).isFalse();
        assertThatThrownBy(open::aclAdmin).isInstanceOf(IllegalStateException.class);

        SelfSignedCertificate certificate = SelfSignedCertificate.shared();
        StackSpec secured = StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a"))
            .aclUser("app", "app-secret-1", "Topic:orders-*", "Group:billing")
            .tls(certificate.certificatePem(), certificate.privateKeyPem()).build();

        assertThat(secured.aclEnabled()).isTrue();
        assertThat(secured.tls()).isTrue();
        assertThat(secured.aclAdmin().name()).isEqualTo(StackSpec.ACL_ADMIN_NAME);
        assertThat(secured.aclAdmin().secret()).hasSizeGreaterThanOrEqualTo(16);
        assertThat(secured.toBuilder().build().aclAdmin()).isEqualTo(secured.aclAdmin());
        assertThat(secured.toString()).contains("app").contains("tls")
            .doesNotContain("app-secret-1").doesNotContain(secured.aclAdmin().secret());
    }

    @Test
    void rejectsBadAclAccounts() {
        StackSpec.Builder builder = StackSpec.builder();
        assertThatThrownBy(() -> builder.aclUser("app", "short", "Topic:orders"))
            .hasMessageContaining("at least 8 characters");
        assertThatThrownBy(() -> builder.aclUser("app", "long-enough", "orders"))
            .hasMessageContaining("resource of ACL user app must match");
        assertThatThrownBy(() -> builder.aclUser(StackSpec.ACL_ADMIN_NAME, "long-enough", "Topic:orders"))
            .hasMessageContaining("the testkit's admin");
    }

    @Test
    void theBrokersAccessControlSettingsAreKnownBrokerProperties() {
        AclUser admin = new AclUser("admin", "admin-secret", List.of("Topic:*"));

        BrokerAcl.brokerSettings(admin).forEach(BrokerProperties::checkOverride);
    }
}
