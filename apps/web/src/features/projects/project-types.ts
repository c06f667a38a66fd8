/** How each project type (SPEC §3) is named and drawn in the lists and the add-project modal. */
import { creatableTypes, type Product, type ProjectType, productOf } from "@redline/shared";
import {
  AppWindow,
  Bug,
  FileImage,
  Globe,
  type LucideIcon,
  PenTool,
  Smartphone,
  Sparkles,
} from "lucide-react";

export interface ProjectTypeInfo {
  label: string;
  description: string;
  icon: LucideIcon;
}

export const PROJECT_TYPE_INFO: Record<ProjectType, ProjectTypeInfo> = {
  web: { label: "Website", description: "Review live web pages and screenshots.", icon: Globe },
  image: {
    label: "Images & PDFs",
    description: "Upload images or PDFs and comment on them.",
    icon: FileImage,
  },
  webapp: {
    label: "Web app",
    description: "Pages behind a sign-in, added from the browser. Expire after 2 days on limited plans.",
    icon: AppWindow,
  },
  illustration: { label: "Illustration", description: "Slides of images and text.", icon: PenTool },
  browse: {
    label: "Bug tracking",
    description: "Lists and tickets. Free projects expire after 2 days.",
    icon: Bug,
  },
  mobile: { label: "Mobile app", description: "Bug tracking for mobile apps.", icon: Smartphone },
  demo: { label: "Demo", description: "A sample project to try things out.", icon: Sparkles },
};

/** The types a user can create from the add-project modal, in the order shown. */
/** What the New project modal offers: illustration only once the slide editor exists (SHIPPED_FEATURES). */
export const CREATABLE_TYPES: readonly ProjectType[] = creatableTypes<ProjectType>([
  "web",
  "image",
  "webapp",
  "illustration",
  "browse",
]);

/**
 * The types offered in a product (SPEC §1): the bug-tracking product creates bug-tracking projects; the
 * website-feedback product offers them too (opening one moves the tab to bug tracking).
 */
export function creatableTypesIn(product: Product): readonly ProjectType[] {
  return product === "browse"
    ? CREATABLE_TYPES.filter((type) => productOf(type) === "browse")
    : CREATABLE_TYPES;
}
