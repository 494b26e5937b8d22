import { createRoot } from 'react-dom/client';
import { boot } from './boot.tsx';
import './ui/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
void boot(createRoot(container));
