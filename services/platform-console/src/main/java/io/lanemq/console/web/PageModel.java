package io.lanemq.console.web;

import java.security.Principal;
import java.util.Locale;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** What every page's header shows: who is signed in, with which role. */
@ControllerAdvice
class PageModel {
    @ModelAttribute("user")
    String user(Principal principal) {
        return principal == null ? null : principal.getName();
    }

    @ModelAttribute("role")
    String role(Authentication authentication) {
        return authentication == null ? null : authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority)
                .filter(a -> a.startsWith("ROLE_")).map(a -> a.substring(5).toLowerCase(Locale.ROOT)).findFirst().orElse("");
    }
}
