import { Link } from "react-router";
import { useSiteConfig } from "../lib/site-config.ts";

export function Footer() {
  const { data: site } = useSiteConfig();
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div>
          <p className="footer-brand">Trading Academy</p>
          <p className="footer-tagline">Learn to trade with structure, discipline and real risk management.</p>
        </div>
        <nav aria-label="Social media">
          <ul className="footer-links">
            {site?.socialLinks.map((link) => (
              <li key={link.label}>
                <a href={link.href} target="_blank" rel="noopener noreferrer">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label="Practice">
          <ul className="footer-links">
            <li>
              <Link to="/tools">Trading calculators</Link>
            </li>
            <li>
              <Link to="/journal">Trading journal</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal">
          <ul className="footer-links">
            <li>
              <Link to="/terms">Terms</Link>
            </li>
            <li>
              <Link to="/privacy">Privacy</Link>
            </li>
          </ul>
        </nav>
        {site && (
          <p className="footer-contact">
            Questions? Call <a href={`tel:${site.supportPhone.replace(/\s+/g, "")}`}>{site.supportPhone}</a> or email{" "}
            <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>
          </p>
        )}
        <p className="footer-legal">© {new Date().getFullYear()} Trading Academy. Trading involves risk; nothing here is financial advice.</p>
      </div>
    </footer>
  );
}
