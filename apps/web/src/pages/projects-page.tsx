/** `/projects`, `/projects/web`, `/projects/illustration`, `/projects/archived` (SPEC §2), title 'Projects'. */
import {
  PROJECT_SORTS,
  type Product,
  type ProjectList,
  type ProjectSort,
  SHIPPED_FEATURES,
  showsProjectUpsell,
} from "@redline/shared";
import { Plus, Search } from "lucide-react";
import { useId, useState } from "react";
import { Link, NavLink, useLocation, useSearchParams } from "react-router";
import { useUpsellPlan } from "../features/billing/use-upsell-plan.ts";
import { AddProjectModal } from "../features/projects/add-project-modal.tsx";
import { ProjectGrid } from "../features/projects/project-grid.tsx";
import { useMe } from "../features/session/use-me.ts";
import { useActiveTeam } from "../features/teams/use-active-team.ts";
import { useDebouncedValue } from "../lib/use-debounced-value.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import { useProduct } from "../lib/use-product.ts";
import "../features/projects/projects.css";
import { ShareButton } from "../features/sharing/share-modal.tsx";

const LISTS: { list: ProjectList; path: string; label: string; products: readonly Product[] }[] = [
  { list: "all", path: "/projects", label: "All projects", products: ["web", "browse"] },
  { list: "web", path: "/projects/web", label: "Web", products: ["web"] },
  // Its own tab once the slide editor exists (SHIPPED_FEATURES); no placeholder list before.
  ...(SHIPPED_FEATURES.slideEditor
    ? [
        {
          list: "illustration" as const,
          path: "/projects/illustration",
          label: "Illustration",
          products: ["web"] as const,
        },
      ]
    : []),
  { list: "archived", path: "/projects/archived", label: "Archived", products: ["web", "browse"] },
];

function isSort(value: string | null): value is ProjectSort {
  return value !== null && value in PROJECT_SORTS;
}

export function ProjectsPage() {
  useDocumentTitle("Projects");
  const id = useId();
  const { pathname } = useLocation();
  const { data: me } = useMe();
  const [params, setParams] = useSearchParams();
  const [filter, setFilter] = useState(params.get("q") ?? "");
  const [isAddOpen, setAddOpen] = useState(false);
  const list = LISTS.find((entry) => entry.path === pathname.replace(/\/$/, ""))?.list ?? "all";
  const sortParam = params.get("sort");
  const sort: ProjectSort = isSort(sortParam) ? sortParam : "modifiedAt";
  const q = useDebouncedValue(filter.trim());
  const product = useProduct();
  const upsellPlan = useUpsellPlan(me, product);
  const isLimited = upsellPlan ? showsProjectUpsell(upsellPlan) : false;
  const activeTeam = useActiveTeam(product);

  const handleSort = (next: string) => {
    const nextParams = new URLSearchParams(params);
    if (next === "modifiedAt") nextParams.delete("sort");
    else nextParams.set("sort", next);
    setParams(nextParams, { replace: true });
  };

  return (
    <main className="content-page projects-page">
      <div className="projects-page__head">
        <div>
          <h1 className="projects-page__title">
            {product === "browse" ? "Bug tracking projects" : "Projects"}
          </h1>
          {isLimited ? (
            <p className="projects-page__upsell">
              Get unlimited projects.{" "}
              <Link className="link" to="/upgrade">
                Upgrade now
              </Link>
            </p>
          ) : null}
        </div>
        <button type="button" className="btn btn--primary" onClick={() => setAddOpen(true)}>
          <Plus size={16} aria-hidden /> New project
        </button>
      </div>

      <div className="projects-page__bar">
        <nav className="tabs" aria-label="Project lists">
          {LISTS.filter((entry) => entry.products.includes(product)).map((entry) => (
            <NavLink key={entry.list} to={entry.path} end className="tabs__tab">
              {entry.label}
            </NavLink>
          ))}
        </nav>
        <div className="projects-page__tools">
          <div className="projects-search">
            <Search size={16} aria-hidden className="projects-search__icon" />
            <input
              className="input projects-search__input"
              type="search"
              aria-label="Filter projects"
              placeholder="Filter projects"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          </div>
          <label className="visually-hidden" htmlFor={`${id}-sort`}>
            Sort projects
          </label>
          <select
            id={`${id}-sort`}
            className="input projects-page__sort"
            value={sort}
            onChange={(event) => handleSort(event.target.value)}
          >
            {Object.entries(PROJECT_SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <ProjectGrid
        query={{ list, sort, q, teamId: activeTeam?.id ?? null, product }}
        onCreate={() => setAddOpen(true)}
        renderShare={(project) => <ShareButton project={project} variant="card" />}
      />
      <AddProjectModal open={isAddOpen} onOpenChange={setAddOpen} />
    </main>
  );
}
