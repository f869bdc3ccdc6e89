// /admin: the console, one tab at a time; the tab is in the address (?tab=users) so a reload or a
// shared link opens the same one. Counts in the labels come from the server.
import { useSearchParams } from "react-router";
import type { AdminSummary } from "../../../shared/contracts/admin.ts";
import "./admin.css";
import { useAdminSummary } from "./admin-api.ts";
import { AnnouncementsTab } from "./announcements/announcements-tab.tsx";
import { AuditTab } from "./records/audit-tab.tsx";
import { DashboardTab } from "./dashboard/dashboard-tab.tsx";
import { MentorshipTab } from "./support/mentorship-tab.tsx";
import { MessagesTab } from "./records/messages-tab.tsx";
import { PaymentsTab } from "./billing/payments-tab.tsx";
import { PriceDataTab } from "./exercises/price-data-tab.tsx";
import { ProgramsTab } from "./catalog/programs-tab.tsx";
import { QuestionsTab } from "./support/questions-tab.tsx";
import { UsersTab } from "./users/users-tab.tsx";
import { WaitlistTab } from "./cohorts/waitlist-tab.tsx";

const TABS = [
  // The first tab, so /admin opens on how the academy is doing (docs/admin.md, "Dashboard").
  { id: "dashboard", label: "Dashboard", Panel: DashboardTab },
  { id: "programs", label: "Programs", Panel: ProgramsTab },
  { id: "users", label: "Users", Panel: UsersTab },
  { id: "waitlist", label: "Waitlist", Panel: WaitlistTab },
  { id: "payments", label: "Payments", Panel: PaymentsTab },
  { id: "audit", label: "Audit", Panel: AuditTab },
  { id: "messages", label: "Messages", Panel: MessagesTab },
  { id: "questions", label: "Questions", Panel: QuestionsTab },
  { id: "mentorship", label: "Mentorship", Panel: MentorshipTab },
  { id: "announcements", label: "Announcements", Panel: AnnouncementsTab },
  { id: "price-data", label: "Price Data", Panel: PriceDataTab },
  // Dashboard, Announcements and Price Data have no count in their labels: the summary counts only the tabs it names.
] as const satisfies readonly { id: keyof AdminSummary | "dashboard" | "announcements" | "price-data"; label: string; Panel: () => React.ReactNode }[];

type TabId = (typeof TABS)[number]["id"];

export function AdminPage() {
  const [params, setParams] = useSearchParams();
  const summary = useAdminSummary();
  const current = TABS.find((tab) => tab.id === params.get("tab")) ?? TABS[0];

  function open(id: TabId) {
    setParams(id === TABS[0].id ? {} : { tab: id });
  }

  return (
    <div className="container admin-page">
      <h1>Admin Dashboard</h1>
      <div className="admin-tabs" role="tablist" aria-label="Admin sections">
        {TABS.map((tab) => {
          const count = Object.entries(summary.data ?? {}).find(([key]) => key === tab.id)?.[1];
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`admin-tab-${tab.id}`}
              aria-controls={`admin-panel-${tab.id}`}
              aria-selected={tab.id === current.id}
              tabIndex={tab.id === current.id ? 0 : -1}
              className="admin-tab"
              onClick={() => open(tab.id)}
              onKeyDown={(event) => {
                const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
                if (!step) return;
                const index = (TABS.findIndex((t) => t.id === current.id) + step + TABS.length) % TABS.length;
                const next = TABS[index];
                if (!next) return;
                open(next.id);
                document.getElementById(`admin-tab-${next.id}`)?.focus();
              }}
            >
              {tab.label}
              {count !== undefined && ` (${count})`}
            </button>
          );
        })}
      </div>
      <section role="tabpanel" id={`admin-panel-${current.id}`} aria-labelledby={`admin-tab-${current.id}`}>
        <current.Panel />
      </section>
    </div>
  );
}
