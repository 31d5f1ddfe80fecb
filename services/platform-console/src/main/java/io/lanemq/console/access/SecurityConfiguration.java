package io.lanemq.console.access;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Form login against the users file, sessions, CSRF tokens on every form (Spring Security's default, kept), and the
 * coarse role rules by path; the per-application rule is {@link Ownership}'s, applied where a change is made. A refused
 * role gets 403. Replacing the users file by OIDC means replacing {@link #users} and {@code formLogin} here only.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    @Bean
    SecurityFilterChain consoleSecurity(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(paths -> paths
                        .requestMatchers(HttpMethod.POST, "/operations/**", "/history/*/rollback").hasRole(Role.OPERATOR.name())
                        .requestMatchers(HttpMethod.POST, "/changes/**").hasRole(Role.EDITOR.name())
                        .requestMatchers("/error", "/forbidden").permitAll()
                        .anyRequest().hasRole(Role.VIEWER.name()))
                .exceptionHandling(denied -> denied.accessDeniedPage("/forbidden"))
                .formLogin(login -> login.defaultSuccessUrl("/topics", false))
                .logout(logout -> logout.logoutSuccessUrl("/login?logout"));
        return http.build();
    }

    /** An operator is an editor, an editor a viewer. */
    @Bean
    static RoleHierarchy roleHierarchy() {
        return RoleHierarchyImpl.withDefaultRolePrefix()
                .role(Role.OPERATOR.name()).implies(Role.EDITOR.name())
                .role(Role.EDITOR.name()).implies(Role.VIEWER.name())
                .build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return new BCryptPasswordEncoder();
    }

    @Bean
    UserDetailsService users(UsersFile file) {
        return name -> {
            UsersFile.User user = file.users().get(name);
            if (user == null) {
                throw new UsernameNotFoundException("no such user");
            }
            return User.withUsername(name).password(user.passwordHash()).roles(user.role().name()).build();
        };
    }
}
